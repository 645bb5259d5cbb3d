struct record
{
    const char *name;
    int id;
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
