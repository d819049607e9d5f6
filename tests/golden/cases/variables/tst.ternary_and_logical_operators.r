0 1 1 1 big

