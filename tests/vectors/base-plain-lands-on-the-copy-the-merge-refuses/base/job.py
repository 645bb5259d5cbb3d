def run():
    retries = 1
