dtrace: failed to set -x linkmode: Invalid value for specified option
