def getter(a):
    try:
        return a.value
    finally:
        done(a)

def read(store):
    opts = make(store)
    epoch = store.n
    try:
        value = compute(store)
        remember(store, value)
        return value
    finally:
        close(store)
