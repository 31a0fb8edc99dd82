/**
 * The web dashboard at /ui: static HTML, CSS and JavaScript modules under classpath:static/ui, served
 * without a key under a strict Content-Security-Policy; every API call the pages make carries the key.
 */
@org.jspecify.annotations.NullMarked
package io.privmat.ui;
