class Options
{
    public Options()
    {
        NameStyle = NameStyle.AsIs;
        Culture = CultureInfo.InvariantCulture;
    }

    public string Name { get; set; }
}
