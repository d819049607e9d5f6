[abc][       abc][abc       ][ab]

