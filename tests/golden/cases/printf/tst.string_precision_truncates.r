[abc][      ab][ab      ]

