set: 1
cleared: 1 1
strchr miss: 1
strchr hit: bc 1
before: 3 4
after: 0 0
tls after: 0
local: 1

