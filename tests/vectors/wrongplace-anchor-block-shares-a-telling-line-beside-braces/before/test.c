struct record
{
    const char *name;
    char *out;
};

/* Create a bunch of objects. */
void create_objects()
{
    /* declare a few. */
    cJSON *root;
    char *out;
    int i;

    root = make();
}
