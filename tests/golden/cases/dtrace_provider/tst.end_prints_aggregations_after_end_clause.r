in END

                1
