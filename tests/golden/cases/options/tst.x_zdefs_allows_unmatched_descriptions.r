BEGIN fired

