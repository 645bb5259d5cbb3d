void a()
{
    check(1);
}

void g()
{
    check(4);
}

void e()
{
    check(3);
    step_e();
    done();
}
