void a()
{
    check(1);
}

void g()
{
    check(44);
}

void e()
{
    check(3);
    step_e();
    finish();
}
