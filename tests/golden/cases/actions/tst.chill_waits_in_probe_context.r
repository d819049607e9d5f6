timestamp moved by 30 ms or more

