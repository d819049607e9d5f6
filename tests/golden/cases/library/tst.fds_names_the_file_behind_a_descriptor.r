/dev/null|/dev|null
<none>|<none>

