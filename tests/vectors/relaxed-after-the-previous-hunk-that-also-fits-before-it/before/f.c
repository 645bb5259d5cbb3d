void a()
{
    check(1);
}

void c()
{
    verify(7);
}

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
