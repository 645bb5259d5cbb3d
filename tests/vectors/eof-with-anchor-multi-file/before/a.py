def main():
    pass
main()
