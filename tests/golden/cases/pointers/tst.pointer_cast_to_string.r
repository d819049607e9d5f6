from scratch
from scratch
12

