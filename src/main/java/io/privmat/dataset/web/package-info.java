/** HTTP adapter of the dataset capability: controller and request/response records. */
@NullMarked
package io.privmat.dataset.web;

import org.jspecify.annotations.NullMarked;
