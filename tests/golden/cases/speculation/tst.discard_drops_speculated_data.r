direct

