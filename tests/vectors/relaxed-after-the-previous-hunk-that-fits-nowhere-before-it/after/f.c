void d()
{
    run();
}

void g()
{
    check(44);
}

void e()
{
    check(3);
}

void added()
{
}

void f()
{
    run();
}
