f(
) => T

declare {
}

next
