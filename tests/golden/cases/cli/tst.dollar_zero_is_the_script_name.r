tst.dollar_zero_is_the_script_name.d

