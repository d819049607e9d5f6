tab	here|8
quote"back\slash

