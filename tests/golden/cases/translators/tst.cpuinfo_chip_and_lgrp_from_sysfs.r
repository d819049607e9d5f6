chip ok
lgrp ok

