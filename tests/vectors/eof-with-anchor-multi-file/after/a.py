def main():
    pass
main()
print('done')
