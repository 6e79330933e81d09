set terminal pngcairo size 1800,2100 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 5,3 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 305.5 426.6 404.7
64 299.9 472.1 399.2
256 392.7 591.9 469.7
EOD
$m0 << EOD
8 357.2 817.1 893.0
64 389.3 764.3 1107.5
256 572.7 881.0 1239.7
EOD
$a0 << EOD
1 4.464 2.530 2.958
2 6.624 4.260 4.445
3 4.555 3.685 3.595
4 4.214 3.245 3.511
EOD
$w1 << EOD
8 211.3 385.2 190.6
64 243.4 418.0 220.5
256 328.6 502.1 295.4
EOD
$m1 << EOD
8 185.3 359.2 164.6
64 188.3 362.9 165.4
256 201.3 374.8 168.1
EOD
$a1 << EOD
EOD
$w2 << EOD
8 464.3 1001.4 603.3
64 494.4 1097.1 661.4
256 566.1 1157.9 678.7
EOD
$m2 << EOD
8 499.7 1294.4 877.5
64 503.4 1323.7 801.3
256 698.6 1388.1 891.4
EOD
$a2 << EOD
1 1.916 0.867 1.413
2 3.591 1.739 2.731
3 3.922 1.952 3.281
4 3.841 1.918 3.047
EOD
$w3 << EOD
8 386.2 729.6 474.0
64 375.4 812.2 422.2
256 455.3 835.3 505.8
EOD
$m3 << EOD
8 407.3 1098.7 723.5
64 414.1 1002.1 801.7
256 578.7 1038.2 797.2
EOD
$a3 << EOD
1 2.493 1.265 1.778
2 3.500 2.130 3.481
3 3.752 2.275 3.503
4 5.086 2.855 4.285
EOD
$w4 << EOD
8 203.2 418.1 174.5
64 209.9 425.0 177.9
256 262.2 475.0 216.8
EOD
$m4 << EOD
8 180.2 395.1 151.5
64 183.9 399.0 151.9
256 200.1 412.9 154.7
EOD
$a4 << EOD
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:769.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1611.6]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:8.6]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'x86_64-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:652.7]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:487.2]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1505.3]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1804.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m2 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:5.1]
set style data linespoints
set xtics 1
plot $a2 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64-nopac: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1085.9]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w3 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-nopac: the same, a reader consuming on another CPU (ns per event)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1428.3]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m3 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-nopac: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:6.6]
set style data linespoints
set xtics 1
plot $a3 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64-icount: one writer, overwrite, no reader (instructions per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:617.5]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w4 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64-icount: the same less the loop and the copy (reserve + commit)'
set xlabel 'payload (bytes)'
set ylabel 'instructions per event'
set yrange [0:536.8]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $m4 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set multiplot next
unset multiplot
