dtrace: failed to compile script err.D_XLATE_NONE.no_translator.d: line 12: cannot translate from "struct in" to "struct out"
