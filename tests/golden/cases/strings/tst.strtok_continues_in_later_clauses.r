first clause: eggs
second clause: flour
third clause: sugar
then: none left
fourth clause: none

