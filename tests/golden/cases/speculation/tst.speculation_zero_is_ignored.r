kept

