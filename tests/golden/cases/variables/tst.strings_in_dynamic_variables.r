changed abc abc

