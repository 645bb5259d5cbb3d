void a()
{
    if (x)
        return 1;
}
void b()
{
    if (x)
        return 1;
}
void c()
{
    if (x)
        return 1;
}
