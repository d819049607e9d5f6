dtrace: failed to compile script err.D_PRAGMA_MALFORM.option_without_name.d: line 2: malformed #pragma option <option>=<val>
