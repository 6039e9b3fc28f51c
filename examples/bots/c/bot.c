/* A bot for every shedkit game in C (C99, no library): the bot protocol on stdin/stdout.
 *
 * It plays the lowest legal play: the first move of the engine's list that is not "pass"
 * (the engine lists pass first, then each kind of play from low to high).
 *
 *   cc -O2 -o build/lowest examples/bots/c/bot.c
 *   shedkit arena dominoes --agents cmd:build/lowest,greedy --deals 200
 *
 * It reads only what it needs: the message's "type", its "id" and the strings of
 * "moves", which the engine writes before the (much longer) "view". Move strings hold
 * no quote or backslash, so no JSON unescaping is needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of the string value of "key" (the first occurrence), copied into out. */
static int string_value(const char *line, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *at = strstr(line, pattern);
    if (at == NULL) return 0;
    at += strlen(pattern);
    const char *end = strchr(at, '"');
    if (end == NULL || (size_t)(end - at) >= size) return 0;
    memcpy(out, at, (size_t)(end - at));
    out[end - at] = '\0';
    return 1;
}

/* The first string of the "moves" array that is not "pass", else "pass". */
static void lowest_move(const char *line, char *out, size_t size) {
    snprintf(out, size, "pass");
    const char *at = strstr(line, "\"moves\":[");
    if (at == NULL) return;
    at += strlen("\"moves\":[");
    while (*at == '"') {
        const char *end = strchr(at + 1, '"');
        if (end == NULL) return;
        size_t length = (size_t)(end - at - 1);
        if (!(length == 4 && strncmp(at + 1, "pass", 4) == 0) && length < size) {
            memcpy(out, at + 1, length);
            out[length] = '\0';
            return;
        }
        at = end + 1;
        if (*at == ',') at++;
    }
}

int main(void) {
    size_t capacity = 1 << 16;
    char *line = malloc(capacity);
    if (line == NULL) return 1;
    size_t length = 0;
    int c;
    while ((c = getchar()) != EOF) {
        if (c != '\n') {
            if (length + 1 >= capacity) {
                char *bigger = realloc(line, capacity * 2);
                if (bigger == NULL) return 1;
                line = bigger;
                capacity *= 2;
            }
            line[length++] = (char)c;
            continue;
        }
        line[length] = '\0';
        length = 0;
        char type[32];
        if (!string_value(line, "type", type, sizeof type)) continue;
        if (strcmp(type, "hello") == 0) {
            printf("{\"type\":\"ready\",\"name\":\"lowest (c)\"}\n");
        } else if (strcmp(type, "act") == 0) {
            char move[256];
            long id = 0;
            const char *at = strstr(line, "\"id\":");
            if (at != NULL) id = strtol(at + 5, NULL, 10);
            lowest_move(line, move, sizeof move);
            printf("{\"type\":\"move\",\"id\":%ld,\"move\":\"%s\"}\n", id, move);
        } else if (strcmp(type, "match_end") == 0) {
            break;
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
