set terminal pngcairo size 1200,840 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 2,2 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 535.5 818.7 609.9
64 588.5 876.7 651.5
256 771.5 1025.5 743.8
EOD
$a0 << EOD
1 1.347 0.887 1.229
2 1.962 1.522 1.960
3 1.543 1.012 1.451
4 1.781 1.370 1.847
EOD
$w1 << EOD
8 1789.5 2849.1 2120.6
64 2255.5 2542.5 1738.7
256 1731.3 2504.9 1777.3
EOD
$a1 << EOD
1 0.656 0.444 0.649
2 1.177 0.843 1.105
3 1.369 0.975 1.372
4 1.417 0.964 1.346
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1333.2]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:2.6]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3703.8]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:1.8]
set style data linespoints
set xtics 1
plot $a1 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
unset multiplot
