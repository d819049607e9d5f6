before
from-shell 7
after

