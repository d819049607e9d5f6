4294967295 ffffffff 44 -1
|       abc|

