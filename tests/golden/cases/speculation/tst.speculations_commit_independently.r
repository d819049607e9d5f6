from b

