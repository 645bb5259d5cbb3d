struct record
{
    const char *name;
    int id;
};

/* Create a bunch of objects. */
void create_objects()
{
    /* declare a few. */
    cJSON *root = NULL;
    char *out = NULL;
    int i;

    root = make();
}
