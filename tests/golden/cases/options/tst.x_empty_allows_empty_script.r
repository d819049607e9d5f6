dtrace: script 'tst.x_empty_allows_empty_script.d' matched 0 probes
dtrace: no probes matched
