declared

