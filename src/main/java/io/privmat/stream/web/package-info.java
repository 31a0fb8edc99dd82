/** HTTP adapter of streams and subscriptions (internal). */
@NullMarked
package io.privmat.stream.web;

import org.jspecify.annotations.NullMarked;
