int parse(const char *s)
{
    int r = 0;
    if (s == NULL)
    {
        goto fail;
    }
    r = 1;
    return r;

fail:
    log_error(s);
    return -1;
}

int other(const char *s)
{
    log_warning(s);
    return 0;
}
