def run_old():
    retries = 1

def run():
    retries = 2
