area=42 perimeter=26 unset=0
clause-local: area=42

