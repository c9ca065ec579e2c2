def zero_offset(x):
    return 0.0 * len(x)
