dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): couldn't set option "nosuchoption" to "1": Invalid option name

dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): couldn't set option "quiet" to "perhaps": Invalid value for specified option

dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): couldn't set option "bufsize" to "8m": Operation illegal when tracing is active

still tracing

