/* SPDX-License-Identifier: GPL-2.0 */
/* Reading and writing the small files of sysfs, securityfs and tracefs. */

#ifndef FILES_H
#define FILES_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Read up to @size - 1 bytes of @path, NUL-terminated: the length or -errno. */
static inline ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

/* Write @len bytes of @buf to @path in one write(): 0 or an errno. */
static inline int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, buf, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

static inline int write_str(const char *path, const char *s)
{
	return write_file(path, s, strlen(s));
}

/* Open @path with O_TRUNC: what empties a tracefs trace buffer. */
static inline int truncate_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

#endif /* FILES_H */
