
        2                5
        1               10
done

