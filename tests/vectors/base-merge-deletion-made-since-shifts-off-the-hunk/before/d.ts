f(
) => T

next
