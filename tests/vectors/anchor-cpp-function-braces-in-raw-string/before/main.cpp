void usage()
{
    const char* text = R"js(
}
if (x) { ")" }
)js";
    run(2);
}

void other()
{
    run(2);
    run(3);
}
