preprocessed 9

