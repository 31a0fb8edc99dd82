/** HTTP adapter of the query capability (internal). */
@NullMarked
package io.privmat.query.web;

import org.jspecify.annotations.NullMarked;
