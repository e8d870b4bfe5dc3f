/* The C tokenizer of tenflang/data/fastnotation.py: lines of vector notation
 * that follow one template, read over the file's bytes.
 *
 * read_lines returns the number of examples read, or minus the 1-based number
 * of the first line it does not accept (the caller then asks the general
 * reader, tenflang/data/notation.py, which is the definition of the format).
 * Whitespace is space, tab, CR, VT, FF; a token (a name or a number) is a run
 * of bytes that are neither whitespace nor one of {}[],:# -- the atoms of the
 * notation.  A number must be a decimal literal of notation.NUM (no inf/nan:
 * those take the general reader) and is converted by strtod, correctly
 * rounded like Python's float(), so both readers give the same bits.
 *
 * Template tokens: k >= 0 the k-th name, then COLON, OPEN, CLOSE, NUMBER.
 * values holds the variables one after another, `capacity` rows each. */
#include <stdlib.h>

enum { COLON = -1, OPEN = -2, CLOSE = -3, NUMBER = -4 };

static int space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int delimiter(unsigned char c)
{
    return space(c) || c == '\n' || c == '{' || c == '}' || c == '[' || c == ']'
        || c == ',' || c == ':' || c == '#';
}

static long skip(const unsigned char *buf, long pos, long n)
{
    while (pos < n && space(buf[pos]))
        pos++;
    return pos;
}

static long digits(const unsigned char *buf, long pos, long n)
{
    while (pos < n && buf[pos] >= '0' && buf[pos] <= '9')
        pos++;
    return pos;
}

/* The end of [+-]? (d+ .? d* | . d+) ([eE] [+-]? d+)? at pos when a delimiter
 * follows it, else -1. */
static long number_end(const unsigned char *buf, long pos, long n)
{
    if (pos < n && (buf[pos] == '+' || buf[pos] == '-'))
        pos++;
    long start = pos;
    pos = digits(buf, pos, n);
    long count = pos - start;
    if (pos < n && buf[pos] == '.') {
        start = pos + 1;
        pos = digits(buf, start, n);
        count += pos - start;
    }
    if (count == 0)
        return -1;
    if (pos < n && (buf[pos] == 'e' || buf[pos] == 'E')) {
        pos++;
        if (pos < n && (buf[pos] == '+' || buf[pos] == '-'))
            pos++;
        start = pos;
        pos = digits(buf, pos, n);
        if (pos == start)
            return -1;
    }
    return pos == n || delimiter(buf[pos]) ? pos : -1;
}

/* The position after name bytes name[0..length) at pos, or -1. */
static long name_end(const unsigned char *buf, long pos, long n,
                     const unsigned char *name, long length)
{
    for (long i = 0; i < length; i++, pos++)
        if (pos >= n || buf[pos] != name[i])
            return -1;
    return pos == n || delimiter(buf[pos]) ? pos : -1;
}

/* Parse the line at pos into row `row`: the position of its '\n' (or n), or -1. */
static long line(const unsigned char *buf, long pos, long n, const long *tokens, long ntokens,
                 const unsigned char *names, const long *name_ends, const long *sizes,
                 double *values, const long *offsets, long row)
{
    int brace = pos < n && buf[pos] == '{';
    if (brace)
        pos++;
    long variable = 0, column = 0;
    for (long k = 0; k < ntokens; k++) {
        long t = tokens[k];
        pos = skip(buf, pos, n);
        if (t >= 0) {
            long start = t > 0 ? name_ends[t - 1] : 0;
            variable = t, column = 0;
            pos = name_end(buf, pos, n, names + start, name_ends[t] - start);
            if (pos < 0)
                return -1;
            continue;
        }
        unsigned char c = pos < n ? buf[pos] : '\n';
        if (t == COLON || t == OPEN) {
            if (c != (t == COLON ? ':' : '['))
                return -1;
            pos++;
            continue;
        }
        if (t == CLOSE) {
            if (c != ']')
                return -1;
            pos++;
        } else {
            long end = number_end(buf, pos, n);
            if (end < 0)
                return -1;
            values[offsets[variable] + row * sizes[variable] + column++] =
                strtod((const char *) buf + pos, NULL);
            pos = end;
        }
        pos = skip(buf, pos, n);          /* after a value: one optional comma */
        if (pos < n && buf[pos] == ',')
            pos++;
    }
    pos = skip(buf, pos, n);
    if (brace) {
        if (pos >= n || buf[pos] != '}')
            return -1;
        pos = skip(buf, pos + 1, n);
    }
    if (pos < n && buf[pos] == '#')
        while (pos < n && buf[pos] != '\n')
            pos++;
    return pos == n || buf[pos] == '\n' ? pos : -1;
}

long read_lines(const unsigned char *buf, long n, const long *tokens, long ntokens,
                const unsigned char *names, const long *name_ends, const long *sizes,
                long nvars, double *values, long *numbers, long capacity, long *offsets)
{
    long total = 0;
    for (long v = 0; v < nvars; v++) {
        offsets[v] = total;
        total += capacity * sizes[v];
    }
    long pos = 0, number = 1, row = 0;
    while (pos < n) {
        long start = skip(buf, pos, n);
        if (start < n && buf[start] != '\n' && buf[start] != '#') {
            long end = line(buf, start, n, tokens, ntokens, names, name_ends, sizes,
                            values, offsets, row);
            if (end < 0)
                return -number;
            numbers[row++] = number;
            pos = end;
        } else {
            pos = start;
            while (pos < n && buf[pos] != '\n')
                pos++;
        }
        pos++;
        number++;
    }
    return row;
}
