   ID   PROVIDER            MODULE                          FUNCTION NAME
    4        sdt            signal                                   signal_deliver
    5        sdt            signal                                   signal_generate
