quiet

