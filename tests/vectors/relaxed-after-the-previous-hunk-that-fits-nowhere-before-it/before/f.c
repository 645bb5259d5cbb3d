void d()
{
    run();
}

void g()
{
    check(4);
}

void e()
{
    check(3);
}

void f()
{
    run();
}
